80 24 0 0
││ beta stop語 [40m中文 wrap[48;5;13mwrapü█ 語█[40mx│ wrap 日本xstop中文- x ü -stop語│ alpha中文 
[48;5;13m日ap wrapé │ éx-betaéalphawrapstop[40m                



[48;5;13m日







[40m                                                                              [48;5;13mab

[4:2m[42m│ü








