i2c-fault timeout 4
i2c-fault timeout
i2c-fault timeout
