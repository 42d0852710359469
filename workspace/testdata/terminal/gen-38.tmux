80 24 0 0
[38;2;8;201;135m-█語[39m[43m              [49m                                                             [38;2;8;201;135m[43mé
betaalphawrapalphastopalpha stop xalpha[39m[49m                                        [38;2;8;201;135mc
dstop[39m                                                                           



                                                   [38;2;8;201;135mqqqqqqqqqqqqq[39m                

[43m                                                                             [38;2;8;201;135m[49m█x[39m 















