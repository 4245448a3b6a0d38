package place

// PagePort is the port of the machine's loopback the person's page is
// served on by default (sayso serve). No wall forwards a port its steps
// listen on to it: a server an agent started must not stand in for the
// page the person answers on, nor keep the page from starting.
const PagePort = 7474
