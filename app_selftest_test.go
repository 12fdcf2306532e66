package main

import "testing"

func TestSelfTestDoneIsInertWithoutTheVariable(t *testing.T) {
	a := &App{}
	if err := a.SelfTestDone("ok x"); err == nil {
		t.Fatal("SelfTestDone did something although the self-test is off")
	}
}
