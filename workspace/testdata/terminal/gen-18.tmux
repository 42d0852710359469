80 24 0 0

                                   [9m[45m[58;5;196müwrapwrapéalpha │é [0m[39m[49m                          








  [9m[96m[45m[58;5;196mü-beta[0m[39m[49m                      
          [9m[96m[42m[58;5;196mé中文 █日本   alpha日本wrap中文 stop█wrap










[0m[39m[45m                                                                              [9m[96m[58;5;196mab
cd
