#!/bin/sh
echo "Not logged in · Please run /login" >&2
exit 1
