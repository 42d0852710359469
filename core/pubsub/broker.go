// Package pubsub is the in-process event bus between background services
// and their listeners (the TUI bridge, connectors, tests).
//
// There are two delivery modes, because events differ in how much a loss
// hurts:
//   - Publish is lossy: if a subscriber's buffer is full the event is
//     dropped for that subscriber. Use it for high-frequency updates
//     (streaming deltas, quotes, terminal nudges) where the next event
//     supersedes the last.
//   - PublishMustDeliver blocks up to a timeout per subscriber. Use it for
//     events a person must see (approval requests, fills, errors).
package pubsub

import (
	"context"
	"sync"
	"time"
)

// DefaultBuffer is each subscriber's channel capacity.
const DefaultBuffer = 1024

// MustDeliverTimeout bounds how long PublishMustDeliver waits on one slow
// subscriber before giving up on it.
const MustDeliverTimeout = 200 * time.Millisecond

// Broker fans events out to subscribers.
type Broker[T any] struct {
	mu     sync.RWMutex
	subs   map[chan T]struct{}
	closed bool
}

// New returns an empty broker.
func New[T any]() *Broker[T] {
	return &Broker[T]{subs: map[chan T]struct{}{}}
}

// Subscribe returns a channel that receives events until ctx ends or the
// broker is closed; the channel is then closed.
func (b *Broker[T]) Subscribe(ctx context.Context) <-chan T {
	ch := make(chan T, DefaultBuffer)
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		close(ch)
		return ch
	}
	b.subs[ch] = struct{}{}
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		b.unsubscribe(ch)
	}()
	return ch
}

func (b *Broker[T]) unsubscribe(ch chan T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[ch]; ok {
		delete(b.subs, ch)
		close(ch)
	}
}

// Publish delivers ev to every subscriber with room; it never blocks.
func (b *Broker[T]) Publish(ev T) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for ch := range b.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

// PublishMustDeliver waits up to MustDeliverTimeout per subscriber.
func (b *Broker[T]) PublishMustDeliver(ev T) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for ch := range b.subs {
		select {
		case ch <- ev:
		default:
			t := time.NewTimer(MustDeliverTimeout)
			select {
			case ch <- ev:
			case <-t.C:
			}
			t.Stop()
		}
	}
}

// Close closes every subscriber channel; later subscriptions get a closed
// channel.
func (b *Broker[T]) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for ch := range b.subs {
		delete(b.subs, ch)
		close(ch)
	}
}

// Len reports the number of subscribers.
func (b *Broker[T]) Len() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.subs)
}
