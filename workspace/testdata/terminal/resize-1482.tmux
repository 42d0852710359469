120 40 119 2
-- éé日本 stopajqwuv
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
語x beta語中文éwrapwrap beta語- 日本ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggébetaxbeta  
                                        


mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm

                                                                              ab































