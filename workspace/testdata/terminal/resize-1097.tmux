50 10 40 4
wrap語wrap中文 - │中文日本alpha -beta 中文beta日本


                                                [44m│語
pha stop│xbeta-語 日本 alphawrapbetaé 語[49m          





