20 6 0 0
││ beta stop語 [40m中文[48;5;13mw
日pü█ 語█[40mbeta│x│ wra
[48;5;13m日ap wrapé │ éx-beta
éalphawrapstop[40ma中[49m [48;5;13mab
[40m          
[4:2m[42m│ü
