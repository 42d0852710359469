80 24 0 0
                                            [35m中文stopcccccccccccccccccc








[39m中文語betabeta                                                                日
alpha




日








