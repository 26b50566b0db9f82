press
press
