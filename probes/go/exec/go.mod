module holdwatch.invalid/goexec

go 1.16
