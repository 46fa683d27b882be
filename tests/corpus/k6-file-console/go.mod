module holdwatch.invalid/k6-file-console

go 1.19
