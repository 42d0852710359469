20 6 0 0
EEEEEEEEEEEEEEEEEEEE
EEEEEEEEEEEEEEEEEEEc
d🙂[9mxstop beta │ 中文
-中文 -█wrapwrap│ü é
stopbetawrapwrapééwr
ap │ alpha xm
