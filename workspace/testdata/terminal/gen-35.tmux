80 24 0 0
wrapalphaüé │ beta中文日本
éwrap中文 alphax│-

    中文



                                      
xx中文wrap日本wrap- stop-éstop中文 alphaalphaü betax日本中文語 中文 - é














中文█stop │ 語wrap│ 中文
