package pubsub

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPublishFansOutAndUnsubscribesOnCancel(t *testing.T) {
	b := New[int]()
	ctx1, cancel1 := context.WithCancel(context.Background())
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	s1, s2 := b.Subscribe(ctx1), b.Subscribe(ctx2)
	b.Publish(1)
	require.Equal(t, 1, <-s1)
	require.Equal(t, 1, <-s2)
	cancel1()
	require.Eventually(t, func() bool { return b.Len() == 1 }, 30*time.Second, 5*time.Millisecond)
	_, open := <-s1
	require.False(t, open, "cancelled subscriber's channel is closed")
}

func TestPublishIsLossyWhenFull(t *testing.T) {
	b := New[int]()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := b.Subscribe(ctx)
	for i := 0; i < DefaultBuffer+10; i++ {
		b.Publish(i) // must never block
	}
	require.Len(t, s, DefaultBuffer)
}

func TestMustDeliverWaitsForReader(t *testing.T) {
	b := New[int]()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := b.Subscribe(ctx)
	for i := 0; i < DefaultBuffer; i++ {
		b.Publish(i)
	}
	go func() { <-s }() // frees one slot
	b.PublishMustDeliver(-1)
	got := 0
	for len(s) > 0 {
		if v := <-s; v == -1 {
			got++
		}
	}
	require.Equal(t, 1, got)
}

func TestCloseClosesSubscribers(t *testing.T) {
	b := New[string]()
	s := b.Subscribe(context.Background())
	b.Close()
	_, open := <-s
	require.False(t, open)
	_, open = <-b.Subscribe(context.Background())
	require.False(t, open)
	b.Publish("after close is a no-op")
}
