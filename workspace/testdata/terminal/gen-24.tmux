80 24 0 0


   




wrap │ alpha中文stop 中文日本wrap é █wrapx      mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm









[92mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm





