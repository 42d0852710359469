80 24 0 0
[34mü│ xstop é [39m beta alpha~qu~aj   [38;2;216;152;8mxstopalpha │語日本 [39m                              


                                                                               [34mx
betawrapx











[39m                                    [38;2;216;152;8mwrapü é中文 █ üalphastop│ x[39m                 
                 [9m[38;2;216;152;8m中文[0m[39m[49m          [38;2;216;152;8m~mkujkk[39m                                          






