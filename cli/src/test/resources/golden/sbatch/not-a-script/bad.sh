echo x
