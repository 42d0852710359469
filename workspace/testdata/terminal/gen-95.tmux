80 24 0 0












                                         [30m[42mnmtlaxjj[39m[49m                               











