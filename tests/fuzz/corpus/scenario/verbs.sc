press 1.5ms
bounce 3 50us
release
storm 3 10 1us
shared 4 5
shared 4 2 2ms
i2c-fault error 3
i2c-fault stuck 2
i2c-fault delay 0us
i2c-fault clear
wait 250ns # comment
	wait 1s
