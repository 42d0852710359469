40 6 0 4
[47m文中文█ stopx -wrap-

 é -語│-xbetaüstop中文 語wrap│éstop 語 s
top

                  日
