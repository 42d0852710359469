20 6 0 0
[38;2;89;16;7m[48;5;5m語mmmmmmmmmmmmmmmm[2maa
[0m[39m[48;5;5m      [2m[38;2;89;16;7mx │██ü中文wrap
betawrap-█beta 



