80 24 0 0

                                                                              [2m[38;2;89;16;7m[48;5;5maa
[0m[39m[48;5;5m      [2m[38;2;89;16;7mx │██ü中文wrapbetawrap-█beta [0m[38;2;89;16;7m[48;5;5mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
語





mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap













