120 40 79 11





日
[44m          [40m                              alpha é wrap █ 日本ü stopstopwrap 日本um
[49mmmul

                                        wrapx ü語日本stop│é

[44mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmp




























