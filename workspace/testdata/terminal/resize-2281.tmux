60 24 0 9


[48;5;120m    [47m-übet[49mstop wrap betaalpha [47ma - 日本 語üalphastop- -語日本-
alphawrapstop█ é x█ 




















