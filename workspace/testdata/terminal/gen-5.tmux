80 24 0 0








                                                             [38;5;195mstop█wrap中文xa



alpha alphaxwrap│中文betabetaé日本wrapwrap wrap é xbeta日本-█











