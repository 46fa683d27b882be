module example.com/jaegerlogs

go 1.19
