i2c-fault nak        # the next transfer: the PIH read of this press
hold 20ms
wait 20ms
i2c-fault error 2
hold 20ms
wait 20ms
i2c-fault delay 300us
hold 20ms
wait 20ms
i2c-fault clear
i2c-fault timeout    # the bus hangs: 1 s adapter timeout
hold 20ms
wait 1100ms
hold 20ms
wait 20ms
