package broker

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestToWireAndCodes(t *testing.T) {
	cases := []struct {
		err       error
		code      Code
		transient bool
	}{
		{Errorf(CodeAuth, "bad key"), CodeAuth, false},
		{Errorf(CodeConfig, "no key"), CodeConfig, false},
		{Errorf(CodeNetwork, "timeout"), CodeNetwork, true},
		{fmt.Errorf("wrapped: %w", Errorf(CodeMarketClosed, "closed")), CodeMarketClosed, true},
		{Errorf(CodeExchange, "insufficient funds"), CodeExchange, false},
		{errors.New("plain"), CodeUnknown, true},
	}
	for _, c := range cases {
		w := ToWire(c.err)
		assert.Equal(t, c.code, w.Code, c.err.Error())
		assert.Equal(t, c.code, CodeOf(c.err))
		assert.Equal(t, c.transient, w.Transient, c.err.Error())
		assert.Contains(t, w.Error, c.err.Error()[len(c.err.Error())-3:])
	}
	e := &Error{Code: CodeNetwork, Msg: "GET /x", Err: errors.New("refused")}
	assert.Equal(t, "NETWORK: GET /x: refused", e.Error())
	assert.ErrorIs(t, e, e.Err)
}
