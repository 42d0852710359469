80 24 0 0
                                                                      ssssssssss
ssssssssssssssssssssssssssssssssssssssssssssssss[2m[42m││ 日本[0m[39m[42m [2mé日本 - wrap[0m[39m[42m            





mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmp

[49m                                                                               [42mp














