hold 5ms
wait 10ms
i2c-fault nak
hold 5ms
wait 10ms
