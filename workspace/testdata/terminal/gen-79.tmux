80 24 0 0

[38;2;81;157;60m語日本 █中文│stop日本語é------












[39m                            [38;2;81;157;60mzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz
zzzzzzzzzzzzz[39m                                                                [38;2;81;157;60m[58;5;196mcd[0m[39m[49mk







                                                                               [38;2;81;157;60m[58;5;196m│
