80 24 0 0
    [38;5;106m[46mx 





[34m[49mjjjjjjjjjjjjjjjjjjjjjjjjjx-beta [39müx│beta- wrapstop中文 stop




日[34malpha betaxwrap 






[39m                                                                              a[43m 
[46mstop█ -[49m   




