package app_test

import "github.com/alice-trading/alice/core/inbox"

func inboxAll() inbox.ListOptions { return inbox.ListOptions{Limit: 100} }
