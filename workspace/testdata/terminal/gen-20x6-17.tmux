20 6 0 0
[94mmmmmmmmmmmmmmmmmmmmm

lkka stop bü alphaal
[39m        [94m中文[39m        
[94mtttttttttttttttttttt
tttttttt
