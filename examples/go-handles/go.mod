module example.com/gohandles

go 1.19
