80 24 0 0
[5:3mé[0m[39m[49m 





                                            [5:3m[40m中文日本alphax ü🙂[0m[39m[49m                [5:3m日


[0m[39m[49mqlakwrap日本日本 x 中文█-alphaü x stop 中文xü








[5:3m[96m[40mü- -中文- 
[0m[39m[49m [5:3müalpha│ü│ 語 ü wrap█[0m[39m[49m                                                        │




