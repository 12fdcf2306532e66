package main

import "testing"

func TestSelfTestDoneIsInertWithoutTheVariable(t *testing.T) {
	a := newApp(nil)
	if err := a.desktop.SelfTestDone("ok x"); err == nil {
		t.Fatal("SelfTestDone did something although the self-test is off")
	}
}
