60 24 0 0














éx alpha│││語 
[46m                                                           [37m[58;5;196mé





[39m[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
mmmmmmmmmmmmmmmmmmmm-│語█üüwrap中文nww
[37m[46m日日本 üü éstop stopbetawrapé-stop[0m[39m[49m語 中文中文wrap█stop ü 中
