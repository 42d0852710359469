20 6 0 0


[38;5;195malpha alphaxwrap│中
文betabetaé日本wrapw
rap wrap é xbeta日本
[39m  [38;5;195mstop█wrap中文xa
