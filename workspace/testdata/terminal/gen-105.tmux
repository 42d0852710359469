80 24 0 0
[35m[46m中文中文日本中文日本 日本 █stop übeta






















[39m[49mbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
