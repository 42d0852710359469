81 25 66 1

          中文█ stop stop █-üalphawrapstop wrap│stopalpha üé中文█ 


語ü日本█ alpha-beta stop█ 中文 beta中文日本 éstop██中文語█語 ü - wrap中文 │ alph
astopbeta│



















