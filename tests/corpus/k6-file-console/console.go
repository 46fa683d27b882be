// A console whose messages go to a log file, the shape of k6's `newFileConsole`: the file is opened
// for appending when the console is made, and nothing closes it (k6's console had no Close the tests
// called, until grafana/k6#4607 closed it in the test).
package console

import (
	"fmt"
	"io"
	"os"
	"strings"
)

type console struct {
	out io.Writer
}

func newConsole(out io.Writer) *console {
	return &console{out: out}
}

func newFileConsole(path string) (*console, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return newConsole(f), nil
}

func (c *console) log(level string, args ...interface{}) {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = fmt.Sprint(a)
	}
	fmt.Fprintf(c.out, "level=%s msg=%q\n", level, strings.Join(parts, " "))
}
