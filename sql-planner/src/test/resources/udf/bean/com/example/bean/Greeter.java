package com.example.bean;

/** rsqldb bean style: a plain class with eval and optional open()/close(). */
public class Greeter {

    private String greeting = "?";
    public static volatile int closed;

    public void open() {
        greeting = "hello";
    }

    public String eval(String name) {
        return greeting + " " + name;
    }

    public String eval(String name, int times) {
        return (greeting + " " + name + " ").repeat(times).trim();
    }

    public void close() {
        closed++;
    }
}
