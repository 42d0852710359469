80 24 0 0
[31m[58;5;196malphaé beta stop xalphaalpha│ üx█wrapx - beta│語 stop





[0m[39m[49m                                                             [36m[58;5;196mx█beta wrap │éwrap[0m[39m[49m-
│語 日本stop 語x│日本

[44m                                                       [38;5;3müalphastopx█




[31m[49m[58;5;196m日alpha│xé é██wrap █wrapwrap é üstopwrap中文stop stop日本wrap





[0m[39m[49m                                  



