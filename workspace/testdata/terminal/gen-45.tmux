80 24 0 0

                                                                        語stop-é
 unm                                                                            










[48;5;180mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap[49m                                                                            




日語 ü wrap │ betaü
                   日́                                                           



