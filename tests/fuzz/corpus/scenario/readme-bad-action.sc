hold 1ms





jump
