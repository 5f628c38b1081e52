#!/bin/sh
echo x
