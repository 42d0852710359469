20 6 0 0
[38;2;250;236;166m[45mwu[47mx wrap[39m            
[38;5;41m[49mü é beta- 中文 é 語
[38;2;250;236;166m[45mmmmmmmmmmmmmmmmmmmmm
wrap[39m                
                  [49m日
█beta 語ü[45m           
