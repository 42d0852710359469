20 6 0 0
[31m[58;5;196m [36mx█beta wrap │éwrap[0m[39m[49m-
│語 日本stop 語x│日w
本[31m[58;5;196malpha│xé é██wrap █
wrapwrap é üstopwrap
中文stop stop日本wra
p
