80 24 0 0





[38;2;230;36;142mcdwrap │ stopwrap [94mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm[38;2;230;36;142mab

[39m                                                                              [94mac
dalpha█-stopstop日本 alpha x











[39m                            [94mx █éü語 xwrap│



