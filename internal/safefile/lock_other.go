//go:build !unix

package safefile

import (
	"errors"
	"os"
)

// tryLock reports that file locks are not supported here.
func tryLock(*os.File) (bool, error) { return false, errors.ErrUnsupported }
