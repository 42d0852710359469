25 6 6 3
[94m[44m日本 beta │stop 
xwrap│ -übetaalphastop 中
文█ mnqmwmwalpha- │é日本-
│beta 
日本日本 語alpha │ 中文語
ü beta stop日本
