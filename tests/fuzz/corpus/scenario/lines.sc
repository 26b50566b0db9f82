storm 31 1000000
shared 31 1
storm 7 1
