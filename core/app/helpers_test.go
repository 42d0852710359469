package app

import "alice/core/inbox"

func inboxAll() inbox.ListOptions { return inbox.ListOptions{Limit: 100} }
